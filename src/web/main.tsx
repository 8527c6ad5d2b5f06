/**
 * The web app's shell: sign-in by pasted token, a hash router (#/dashboards, #/apps, #/insights,
 * #/system) so the hub serves one static page, and the navigation. Each page lives in pages/.
 */
import { render, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, describe, getToken, onUnauthorized, setToken, watchLost } from './api.js';
import { Notifications } from './notifications.js';
import { AppsPage } from './pages/apps.js';
import { DashboardsPage } from './pages/dashboards.js';
import { InsightsPage } from './pages/insights.js';
import { SystemPage } from './pages/system.js';
import { Err } from './ui.js';
import './styles.css';

const PAGES = [
  { id: 'dashboards', title: 'Dashboards', view: DashboardsPage },
  { id: 'apps', title: 'Apps', view: AppsPage },
  { id: 'insights', title: 'Insights', view: InsightsPage },
  { id: 'system', title: 'System', view: SystemPage },
] as const;

function currentRoute(): string {
  const id = location.hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  return PAGES.some((p) => p.id === id) ? id : 'dashboards';
}

function SignIn({ onDone, reason }: { onDone: () => void; reason: string | null }): JSX.Element {
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
      await api('GET', '/api/manager/apps/app').catch(async (err: unknown) => {
        if ((err as { status?: number }).status === 403) return; // a valid token without app scopes
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
        <p>Paste an API token to sign in. The owner token is in <code>data/owner-token</code> on the hub; make others with <code>hearth token create</code>.</p>
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

function App(): JSX.Element {
  const [signedIn, setSignedIn] = useState(getToken() !== null);
  const [reason, setReason] = useState<string | null>(null);
  const [route, setRoute] = useState(currentRoute());
  const [menu, setMenu] = useState(false);
  const [lost, setLost] = useState(false);
  useEffect(() => watchLost(setLost), []);
  useEffect(() => {
    const onHash = (): void => {
      setRoute(currentRoute());
      setMenu(false);
    };
    window.addEventListener('hashchange', onHash);
    const off = onUnauthorized(() => {
      setToken(null);
      setReason('the token was refused (revoked or mistyped); paste a valid one');
      setSignedIn(false);
    });
    return () => {
      window.removeEventListener('hashchange', onHash);
      off();
    };
  }, []);
  if (!signedIn) return <SignIn reason={reason} onDone={() => setSignedIn(true)} />;
  const page = PAGES.find((p) => p.id === route) ?? PAGES[0];
  const View = page.view;
  return (
    <div class="shell">
      <nav class={menu ? 'open' : ''}>
        <a class="brand" href="#/dashboards">
          hearth
        </a>
        {lost ? (
          <span class="lost" role="status" data-testid="lost">
            connection lost, reconnecting…
          </span>
        ) : null}
        <button type="button" class="menu" aria-label="menu" onClick={() => setMenu(!menu)}>
          ☰
        </button>
        <ul>
          {PAGES.map((p) => (
            <li key={p.id}>
              <a href={`#/${p.id}`} class={p.id === route ? 'active' : ''} data-testid={`nav-${p.id}`}>
                {p.title}
              </a>
            </li>
          ))}
          <li>
            <button
              type="button"
              class="link"
              onClick={() => {
                setToken(null);
                setReason(null);
                setSignedIn(false);
              }}
            >
              Sign out
            </button>
          </li>
        </ul>
      </nav>
      <main class="page" data-page={page.id}>
        <View />
      </main>
      <Notifications />
    </div>
  );
}

render(<App />, document.getElementById('root')!);
