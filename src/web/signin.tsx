/**
 * Signing in: by a one-time link (`/#login=<code>`, from `hearth login` on the hub or a QR code
 * another signed-in browser shows), which the page trades for a session token named after this
 * browser; or by pasting a token (scripts, kiosks, the owner token).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { describe, setToken } from './api.js';
import { call } from './client.js';
import { Err } from './ui.js';

/** `#login=<code>`, and for a wall tablet `&to=wall` with its night hours (`&night=22:00-07:00`). */
const LOGIN_HASH = /^#login=([A-Za-z0-9_-]{1,200})(&to=wall(?:&night=(\d\d:\d\d-\d\d:\d\d))?)?$/;

/** "Chrome on Android": what the session is called in the token list. */
export function browserName(ua = navigator.userAgent): string {
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'A browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'another system';
  return `${browser} on ${os}`;
}

/** The code of a sign-in link this page was opened with, or null. */
export function loginCode(): string | null {
  return LOGIN_HASH.exec(location.hash)?.[1] ?? null;
}

/**
 * Trades the link's code for a session token and keeps it; the code leaves the address bar at
 * once either way (it is single-use, and must not linger in history). Rejects with the hub's
 * sentence (used, expired, unknown).
 */
export async function redeemLogin(code: string): Promise<void> {
  const m = LOGIN_HASH.exec(location.hash);
  const landing = m?.[2] ? `#/wall${m[3] ? `?night=${m[3]}` : ''}` : '#/dashboards';
  history.replaceState(null, '', `${location.pathname}${landing}`);
  const made = await call('tokens', 'redeemLogin', { body: { code, browser: browserName() } }, { signOutOn401: false, anonymous: true });
  setToken(made.token);
}

export function SignIn({ onDone, reason }: { onDone: () => void; reason: string | null }): JSX.Element {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(reason);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const token = value.trim();
    if (!token) return setError('paste a token first');
    setBusy(true);
    setToken(token);
    try {
      // A 401 means a wrong token; a 403 means a real token that lacks the apps scope: let it in.
      await call('apps', 'getApps').catch(async (err: unknown) => {
        if ((err as { status?: number }).status === 403) return;
        throw err;
      });
      onDone();
    } catch (err) {
      setToken(null);
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <form class="card" onSubmit={(e) => void submit(e)}>
        <h1>hearth</h1>
        <p>
          To sign in, run <code>hearth login</code> on the hub (in a checkout: <code>npx hearth login</code>; the hub's log says the exact command when it
          starts) and open the link it prints, or scan the QR code a signed-in browser shows under System → Sign in a phone.
        </p>
        <p class="muted small">
          Or paste a token (scripts, kiosks): the owner token is the file <code>owner-token</code> in the hub's data folder (its <code>--data-dir</code>:{' '}
          <code>./data</code> in a checkout, <code>/var/lib/hearth/data</code> when installed); make others with <code>hearth token create</code>.
        </p>
        <label>
          Token
          <input
            type="password"
            autocomplete="off"
            name="token"
            value={value}
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
            placeholder="hth_…"
          />
        </label>
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Err msg={error} />
      </form>
    </main>
  );
}
