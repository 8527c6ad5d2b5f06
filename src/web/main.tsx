/**
 * The web app's shell: sign-in (signin.tsx: a one-time link, or a pasted token), a hash router
 * (#/home, the first screen; #/dashboards, #/devices, #/flows, #/apps, #/insights, #/energy, #/timeline, #/people, #/alarms, #/system) so the hub serves one static page, and the
 * navigation. Each page lives in pages/. #/wall is a wall tablet's screen, shown without the navigation.
 */
import { type JSX, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describe, getToken, onUnauthorized, setToken, setTokenCheck, watchLost } from './api.js';
import { call } from './client.js';
import { FirstRun } from './first-run.js';
import { Icon, type IconName } from './icons.js';
import { Notifications } from './notifications.js';
import { AlarmsPage } from './pages/alarms.js';
import { AppsPage } from './pages/apps.js';
import { DashboardsPage } from './pages/dashboards.js';
import { DevicesPage } from './pages/devices.js';
import { EnergyPage } from './pages/energy.js';
import { FlowsPage } from './pages/flows.js';
import { HomePage } from './pages/home.js';
import { InsightsPage } from './pages/insights.js';
import { PeoplePage } from './pages/people.js';
import { SystemPage } from './pages/system.js';
import { TimelinePage } from './pages/timeline.js';
import { WallPage } from './pages/wall.js';
import { useMe } from './people.js';
import { loginCode, redeemLogin, SignIn } from './signin.js';
import './styles.css';

const PAGES: ReadonlyArray<{ id: string; title: string; icon: IconName; view: () => JSX.Element }> = [
  { id: 'home', title: 'Home', icon: 'home', view: HomePage },
  { id: 'dashboards', title: 'Dashboards', icon: 'dashboard', view: DashboardsPage },
  { id: 'devices', title: 'Devices', icon: 'devices', view: DevicesPage },
  { id: 'flows', title: 'Flows', icon: 'flows', view: FlowsPage },
  { id: 'apps', title: 'Apps', icon: 'apps', view: AppsPage },
  { id: 'insights', title: 'Insights', icon: 'insights', view: InsightsPage },
  { id: 'energy', title: 'Energy', icon: 'energy', view: EnergyPage },
  { id: 'timeline', title: 'Timeline', icon: 'bell', view: TimelinePage },
  { id: 'people', title: 'People', icon: 'people', view: PeoplePage },
  { id: 'alarms', title: 'Alarms', icon: 'clock', view: AlarmsPage },
  { id: 'system', title: 'System', icon: 'system', view: SystemPage },
];

/** Who this browser is signed in as: a person's name, or the token's. */
function SignedInAs(): JSX.Element | null {
  const me = useMe();
  return me.data ? <span>Signed in as {me.data.name}</span> : null;
}

const GUEST_PAGES: ReadonlySet<string> = new Set(['home', 'people']);

// A socket the hub closed for its token: one cheap call says whether the token still works.
setTokenCheck(() => void call('users', 'getUserMe').catch(() => undefined));

function currentRoute(): string {
  const id = location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return id === 'wall' || PAGES.some((p) => p.id === id) ? id : 'home';
}

function App(): JSX.Element {
  const [signedIn, setSignedIn] = useState(getToken() !== null && loginCode() === null);
  const [reason, setReason] = useState<string | null>(null);
  // Opened by a sign-in link (or one pasted into this tab): trade its code before anything else.
  const [redeeming, setRedeeming] = useState(loginCode() !== null);
  useEffect(() => {
    const redeem = (): void => {
      const code = loginCode();
      if (code === null) return;
      setRedeeming(true);
      redeemLogin(code).then(
        () => {
          setReason(null);
          setSignedIn(true);
          setRedeeming(false);
          // The link's landing (the wall, for a wall tablet's) replaced the address without a
          // hashchange: the router hears of it here.
          window.dispatchEvent(new HashChangeEvent('hashchange'));
        },
        (err: unknown) => {
          setToken(null);
          setReason(describe(err));
          setSignedIn(false);
          setRedeeming(false);
        },
      );
    };
    redeem();
    window.addEventListener('hashchange', redeem);
    return () => window.removeEventListener('hashchange', redeem);
  }, []);
  // Asked once signed in, beside the first page's own requests: a never-configured hub walks
  // through the first-run setup instead (a flash of the dashboards page on that one visit).
  // The step it was left at comes with it: the walk resumes there.
  const [firstRun, setFirstRun] = useState<{ at: number | null } | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    call('system', 'getSystemState').then(
      (s) => setFirstRun(s.firstRun ? { at: s.setupStep } : null),
      () => setFirstRun(null),
    );
  }, [signedIn]);
  const [route, setRoute] = useState(currentRoute());
  // Who is signed in decides the pages shown (a guest's are few): asked once signed in.
  const [role, setRole] = useState<string | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    call('users', 'getUserMe').then(
      (u) => setRole(u.role),
      () => setRole(null),
    );
  }, [signedIn]);
  const [menu, setMenu] = useState(false);
  const [lost, setLost] = useState(false);
  useEffect(() => watchLost(setLost), []);
  useEffect(() => {
    const onHash = (): void => {
      setRoute(currentRoute());
      setMenu(false);
    };
    window.addEventListener('hashchange', onHash);
    // Signed out at once (every request stops: api.ts sends none without a token), saying why in
    // the hub's words; a session ended on the System page or by `hearth token revoke` reads the same.
    const off = onUnauthorized((sentence) => {
      setToken(null);
      setReason(`This browser was signed out: the hub refused its token (${sentence}). Sign in again with a new link (hearth login) or a token.`);
      setSignedIn(false);
    });
    return () => {
      window.removeEventListener('hashchange', onHash);
      off();
    };
  }, []);
  if (redeeming) {
    return (
      <main class="signin">
        <p role="status">Signing in…</p>
      </main>
    );
  }
  if (!signedIn) return <SignIn reason={reason} onDone={() => setSignedIn(true)} />;
  // A wall tablet: the wall alone, no navigation, no administration, no first-run walk.
  if (route === 'wall') return <WallPage />;
  if (firstRun) return <FirstRun startAt={firstRun.at} onDone={() => setFirstRun(null)} />;
  // A guest's pages: their rooms and their own account (the rest would only answer refusals).
  const pages = role === 'guest' ? PAGES.filter((p) => GUEST_PAGES.has(p.id)) : PAGES;
  const page = pages.find((p) => p.id === route) ?? pages[0]!;
  const View = page.view;
  return (
    <div class="shell">
      <nav class={menu ? 'open' : ''}>
        <a class="brand" href="#/home">
          hearth
        </a>
        {lost ? (
          <span class="lost" role="status" data-testid="lost">
            connection lost, reconnecting…
          </span>
        ) : null}
        <button type="button" class="menu" aria-label="menu" aria-expanded={menu} onClick={() => setMenu(!menu)}>
          <Icon name="menu" />
        </button>
        <ul>
          {pages.map((p) => (
            <li key={p.id}>
              <a href={`#/${p.id}`} class={p.id === route ? 'active' : ''} aria-current={p.id === route ? 'page' : undefined} data-testid={`nav-${p.id}`}>
                <Icon name={p.icon} /> {p.title}
              </a>
            </li>
          ))}
          <li class="muted small" data-testid="signed-in-as">
            <SignedInAs />
          </li>
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
              <Icon name="signout" /> Sign out
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
