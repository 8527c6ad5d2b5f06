/**
 * Homey's login_oauth2 pairing view, without Athom's cloud: the driver's OAuth2 callback gives
 * the provider's sign-in page (its `url` event); the person opens it, signs in, and the provider
 * sends the browser to the redirect address the app registered (Athom's callback page, which
 * cannot reach this hub). The person pastes that page's address here; the hub hands its code to
 * the driver, which swaps it for a token and says `authorized` (or `error`), and the pairing goes on.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describe } from '../api.js';
import { Err, label } from '../ui.js';
import type { SystemViewProps } from './pair-views.js';

export function LoginOAuth2(p: SystemViewProps): JSX.Element {
  const [url, setUrl] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const offs = [
      p.on('url', (u) => setUrl(typeof u === 'string' ? u : null)),
      p.on('authorized', () => p.next()),
      p.on('error', (e) => {
        setBusy(false);
        setError(typeof e === 'string' ? e : `The sign-in failed${e && typeof e === 'object' && 'message' in e ? `: ${String(e.message)}` : '.'}`);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, []);
  const hint = label(p.options.hint);
  const provider = url ? new URL(url).host : null;
  return (
    <form
      class="stack"
      data-testid="pair-oauth2"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        // The driver answers with `authorized` (or `error`) once it has swapped the code.
        p.oauth2(pasted).catch((err: unknown) => {
          setBusy(false);
          setError(describe(err));
        });
      }}
    >
      {hint ? <p>{hint}</p> : null}
      {url ? (
        <p>
          1.{' '}
          <a href={url} target="_blank" rel="noopener noreferrer" class="button primary" data-testid="pair-oauth2-open">
            {label(p.options.button) || `Sign in at ${provider}`}
          </a>
        </p>
      ) : (
        <p role="status">Waiting for the app's sign-in page…</p>
      )}
      <p>
        2. After you have signed in, your browser ends on a page of the app maker's (often callback.athom.com, which may say it cannot find your Homey). Copy
        that page's whole address from the address bar and paste it here:
      </p>
      <label>
        Address{' '}
        <input
          type="url"
          value={pasted}
          placeholder="https://callback.athom.com/oauth2/callback/?code=…"
          data-testid="pair-oauth2-address"
          onInput={(e) => setPasted((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="primary" disabled={busy || pasted.trim() === ''} data-testid="pair-oauth2-continue">
        {busy ? 'Signing in…' : 'Continue'}
      </button>
      <Err msg={error} />
    </form>
  );
}
