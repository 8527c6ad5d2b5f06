/**
 * "Sign in a phone": a signed-in browser makes a one-time sign-in link with chosen scopes and
 * shows it as a QR code (uqr's encoder, drawn as one SVG path) to scan, with the link itself and a copy button. The link names
 * this page's own address, which is how the phone on the same network reaches the hub too.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { encode } from 'uqr';
import { PHONE_SCOPES, type Scope, WALL_SCOPES } from '../../core/scopes.js';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import type { LoginCode } from '../types.js';
import { CopyButton, Err, formatTime, ScopePicker, useAction } from '../ui.js';

/** SVG path data of the dark modules. */
function qrPath(modules: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return parts.join('');
}

export function Qr({ text }: { text: string }): JSX.Element {
  // Level M (15% may be lost: a phone's camera at an angle), with the standard's 4-module quiet zone.
  const { data: modules, version } = encode(text, { ecc: 'M', border: 4 });
  const n = modules.length;
  // Dark on white whatever the theme: scanners expect it, and the quiet zone must be light.
  return (
    <svg
      class="qr"
      viewBox={`0 0 ${n} ${n}`}
      width={n * 5}
      height={n * 5}
      role="img"
      aria-label="QR code of the sign-in link"
      data-testid="qr"
      data-modules={17 + 4 * version}
      shape-rendering="crispEdges"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={qrPath(modules)} fill="#000" />
    </svg>
  );
}

/** Seconds left until `iso`, updated every second; 0 once it passed. */
export function useCountdown(iso: string | null): number {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!iso) return;
    const tick = (): void => setLeft(Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [iso]);
  return left;
}

export function PhoneLogin(): JSX.Element {
  const [scopes, setScopes] = useState<Scope[]>([...PHONE_SCOPES]);
  // A wall tablet: its own scopes, and the link opens the wall view with its night hours.
  const [wall, setWall] = useState(false);
  const [night, setNight] = useState({ from: '22:00', until: '07:00' });
  const [made, setMade] = useState<(LoginCode & { to: string }) | null>(null);
  const a = useAction();
  const left = useCountdown(made?.expiresAt ?? null);
  const link = made ? `${location.origin}/#login=${made.code}${made.to}` : '';
  const local = /^(localhost|127\.|\[::1\])/.test(location.host);
  return (
    <>
      <p class="muted">
        A link that signs one browser in once, within 10 minutes, with the scopes you choose. It shows up under API tokens as a session you can revoke.
      </p>
      <form
        onSubmit={a.submit(async () => {
          const code = await call('tokens', 'createLogin', { body: { scopes } });
          setMade({ ...code, to: wall ? `&to=wall&night=${night.from}-${night.until}` : '' });
        })}
      >
        <label class="check">
          <input
            type="checkbox"
            checked={wall}
            data-testid="login-wall"
            onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              setWall(on);
              setScopes([...(on ? WALL_SCOPES : PHONE_SCOPES)]);
            }}
          />
          <span>For a wall tablet: it opens on the home's rooms and a clock, with nothing to administer, and dims at night</span>
        </label>
        {wall ? (
          <div class="inline wrap">
            {(['from', 'until'] as const).map((end) => (
              <label key={end} class="inline">
                {end === 'from' ? 'Night from' : 'until'}{' '}
                <input
                  type="time"
                  required
                  value={night[end]}
                  data-testid={`wall-night-${end}`}
                  onInput={(e) => setNight({ ...night, [end]: (e.target as HTMLInputElement).value })}
                />
              </label>
            ))}
          </div>
        ) : null}
        <ScopePicker value={scopes} onChange={setScopes} />
        <button type="submit" class="primary" disabled={a.busy} data-testid="make-login">
          <Icon name="phone" /> {a.busy ? 'Making…' : 'Make a sign-in link'}
        </button>
        <Err msg={a.error} />
      </form>
      {made ? (
        <div class="login-link" data-testid="login-link">
          {left > 0 ? <Qr text={link} /> : null}
          <div>
            <p>
              {left > 0
                ? `Scan it with the phone's camera, or open the link on it. It works once, until ${formatTime(made.expiresAt)} (${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left).`
                : 'This link has expired; make a new one.'}
            </p>
            {local ? (
              <p class="notice">
                This page is open as {location.host}, which a phone cannot reach: open the web app by the hub's network address to make a link for a phone.
              </p>
            ) : null}
            <code class="break" data-testid="login-url">
              {link}
            </code>{' '}
            <CopyButton text={link} what="the sign-in link" />
          </div>
        </div>
      ) : null}
    </>
  );
}
