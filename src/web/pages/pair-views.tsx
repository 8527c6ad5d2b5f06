/**
 * Homey's system pairing views, as the web app draws them: list_devices (tick the devices the
 * driver found), add_devices (add them), login_credentials (a username and password the driver
 * checks), login_oauth2 (pair-oauth2.tsx), pincode, loading and done. Each talks to the driver through `emit` (the session's
 * emitPairingEvent) and moves on through `next`.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describe } from '../api.js';
import { Err } from '../ui.js';
import { LoginOAuth2 } from './pair-oauth2.js';

export interface Offered {
  name: string;
  data: Record<string, unknown>;
  [field: string]: unknown;
}

export interface SystemViewProps {
  options: Record<string, unknown>;
  emit(event: string, data?: unknown): Promise<unknown>;
  next(): void;
  /** Devices ticked in list_devices, for add_devices to add. */
  picked: Offered[];
  setPicked(devices: Offered[]): void;
  add(device: Offered): Promise<void>;
  done(): void;
  /** Hears an event the driver emits to the views (the last one of each is heard at once, if it came before). */
  on(event: string, handler: (data: unknown) => void): () => void;
  /** Hands the address a sign-in ended on to the driver's OAuth2 callback (login_oauth2). */
  oauth2(url: string): Promise<unknown>;
}

function ListDevices(p: SystemViewProps): JSX.Element {
  const [devices, setDevices] = useState<Offered[] | null>(null);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const singular = p.options.singular === true;
  useEffect(() => {
    p.emit('list_devices').then(
      (listed) => {
        const found = Array.isArray(listed) ? (listed.filter((d) => typeof (d as Offered)?.name === 'string') as Offered[]) : [];
        setDevices(found);
        setTicked(new Set(singular ? found.slice(0, 1).map((_, i) => i) : found.map((_, i) => i)));
      },
      (e: unknown) => setError(describe(e)),
    );
  }, []);
  if (error) return <Err msg={error} />;
  if (!devices) return <p role="status">Asking the app for devices…</p>;
  if (devices.length === 0) return <p data-testid="pair-none">The app found no devices to add.</p>;
  return (
    <div class="stack">
      {devices.map((d, i) => (
        <label key={JSON.stringify(d.data)} class="check">
          <input
            type={singular ? 'radio' : 'checkbox'}
            name="pair-device"
            checked={ticked.has(i)}
            data-testid={`pair-device-${d.name}`}
            onChange={() => {
              const next = new Set(singular ? [] : ticked);
              if (ticked.has(i) && !singular) next.delete(i);
              else next.add(i);
              setTicked(next);
            }}
          />
          {d.name}
        </label>
      ))}
      <button
        type="button"
        class="primary"
        disabled={ticked.size === 0}
        data-testid="pair-add"
        onClick={() => {
          p.setPicked(devices.filter((_, i) => ticked.has(i)));
          p.next();
        }}
      >
        {ticked.size === 1 ? 'Add the device' : `Add ${ticked.size} devices`}
      </button>
    </div>
  );
}

function AddDevices(p: SystemViewProps): JSX.Element {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      for (const d of p.picked) {
        try {
          await p.add(d);
        } catch (e) {
          setError(`${d.name}: ${describe(e)}`);
          return;
        }
      }
      p.done();
    })();
  }, []);
  return error ? <Err msg={error} /> : <p role="status">Adding…</p>;
}

function LoginCredentials(p: SystemViewProps): JSX.Element {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (key: string, fallback: string): string => (typeof p.options[key] === 'string' ? (p.options[key] as string) : fallback);
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        p.emit('login', { username, password }).then(
          (ok) => {
            setBusy(false);
            if (ok === true) p.next();
            else setError('The app did not accept this username and password.');
          },
          (err: unknown) => {
            setBusy(false);
            setError(describe(err));
          },
        );
      }}
    >
      <label>
        {label('usernameLabel', 'Username')}{' '}
        <input autocomplete="username" value={username} data-testid="pair-username" onInput={(e) => setUsername((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {label('passwordLabel', 'Password')}{' '}
        <input
          type="password"
          autocomplete="current-password"
          value={password}
          data-testid="pair-password"
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="primary" disabled={busy} data-testid="pair-login">
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <Err msg={error} />
    </form>
  );
}

/** A view option as text: a string, or Homey's translations object (English, else its first). */
function optionText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const t = v as Record<string, unknown>;
    const first = t.en ?? Object.values(t)[0];
    return typeof first === 'string' ? first : null;
  }
  return null;
}

function Pincode(p: SystemViewProps): JSX.Element {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  // An app may take a while with the code (a Matter device is looked for on the network): said.
  const [busy, setBusy] = useState(false);
  // Homey's pincode view shows the app's title and hint (what code, and where to find it).
  const title = optionText(p.options.title);
  const hint = optionText(p.options.hint);
  return (
    <form
      class="stack"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        p.emit('pincode', [...pin])
          .then(
            (ok) => (ok === true ? p.next() : setError('The app did not accept this code.')),
            (err: unknown) => setError(describe(err)),
          )
          .finally(() => setBusy(false));
      }}
    >
      {title && <strong data-testid="pair-pincode-title">{title}</strong>}
      {hint && <p class="muted">{hint}</p>}
      <label>
        Code{' '}
        <input
          inputmode={p.options.type === 'text' ? 'text' : 'numeric'}
          value={pin}
          data-testid="pair-pincode"
          onInput={(e) => setPin((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Checking the code…' : 'Continue'}
      </button>
      <Err msg={error} />
    </form>
  );
}

/** The system view for `template`, or null when hearth does not draw it. */
export function systemView(template: string): ((p: SystemViewProps) => JSX.Element) | null {
  switch (template) {
    case 'list_devices':
      return ListDevices;
    case 'add_devices':
      return AddDevices;
    case 'login_credentials':
      return LoginCredentials;
    case 'login_oauth2':
      return LoginOAuth2;
    case 'pincode':
      return Pincode;
    case 'loading':
      return () => <p role="status">Working…</p>;
    case 'done':
      return (p) => {
        useEffect(() => p.done(), []);
        return <p role="status">Done.</p>;
      };
    default:
      return null;
  }
}
