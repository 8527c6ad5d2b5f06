/**
 * First run: when the hub was never configured (the system state says firstRun),
 * a signed-in page walks through language and units, location (typed, or this browser's
 * geolocation), and a first dashboard with widgets of the installed apps, then marks the setup
 * done. Every step can be skipped, and so can the whole walk.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { seg } from './api.js';
import { call } from './client.js';
import { Icon } from './icons.js';
import type { Units } from './types.js';
import { Err, LanguageSelect, useAction, useLoad } from './ui.js';

const STEPS = ['Language and units', 'Location', 'First dashboard'] as const;

function Steps({ at }: { at: number }): JSX.Element {
  return (
    <ol class="steps" aria-label="Setup steps">
      {STEPS.map((s, i) => (
        <li key={s} class={i === at ? 'active' : i < at ? 'done' : ''} aria-current={i === at ? 'step' : undefined}>
          {s}
        </li>
      ))}
    </ol>
  );
}

function LanguageStep({ next }: { next: () => void }): JSX.Element {
  const state = useLoad(() => call('i18n', 'getState'));
  const [language, setLanguage] = useState<string | null>(null);
  const [units, setUnits] = useState<string | null>(null);
  const a = useAction();
  const s = state.data;
  return (
    <form
      onSubmit={a.submit(async () => {
        await call('i18n', 'setOptionLanguage', { body: { value: language ?? s?.language ?? 'en' } });
        await call('i18n', 'setOptionUnits', { body: { value: (units ?? s?.units ?? 'metric') as Units } });
        next();
      })}
    >
      <LanguageSelect languages={s?.languages} value={language ?? s?.language} disabled={!s} testId="setup-language" onChange={setLanguage} />
      <fieldset class="choice">
        <legend>Units</legend>
        {(['metric', 'imperial'] as const).map((u) => (
          <label key={u} class="check">
            <input type="radio" name="units" value={u} checked={(units ?? s?.units) === u} onChange={() => setUnits(u)} />
            <span>{u === 'metric' ? 'Metric (°C, km, kg)' : 'Imperial (°F, miles, pounds)'}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" class="primary" disabled={a.busy || !s}>
        Next
      </button>
      <Err msg={a.error ?? state.error} />
    </form>
  );
}

/** Why a browser on the hub's plain-http LAN address cannot give its location, and what to do instead. */
const INSECURE_LOCATION =
  'browsers tell their location only to secure (https) pages or to the computer the hub runs on, and this page is plain http: type the latitude and longitude instead (a map app shows them when you press and hold on your home)';

function LocationStep({ next }: { next: () => void }): JSX.Element {
  const [lat, setLat] = useState('');
  const [lon, setLon] = useState('');
  const a = useAction();
  const locate = useAction();
  // Browsers tell their location only to secure pages (https, or this machine itself): on the
  // hub's plain-http LAN address the request is refused before anyone is asked.
  const insecure = !window.isSecureContext;
  const fromBrowser = (): Promise<string> =>
    new Promise((resolve, reject) => {
      if (insecure) return reject(new Error(INSECURE_LOCATION));
      if (!('geolocation' in navigator)) return reject(new Error('this browser cannot tell its location; type it instead'));
      navigator.geolocation.getCurrentPosition(
        (p) => {
          setLat(p.coords.latitude.toFixed(5));
          setLon(p.coords.longitude.toFixed(5));
          resolve(`found within ${Math.round(p.coords.accuracy)} m`);
        },
        (e) =>
          reject(
            new Error(
              e.code === e.PERMISSION_DENIED
                ? 'the browser was not allowed to tell its location; type it instead'
                : `the browser could not find its location (${e.message})`,
            ),
          ),
        { timeout: 15_000 },
      );
    });
  return (
    <form
      onSubmit={a.submit(async () => {
        if (lat.trim() === '' || lon.trim() === '') throw new Error('enter both a latitude and a longitude, or skip this step');
        await call('geolocation', 'setOptionLocation', { body: { value: { latitude: Number(lat), longitude: Number(lon) } } });
        next();
      })}
    >
      <p class="muted">Where the hub is, for apps that need sun times or weather. It stays on the hub.</p>
      {insecure ? (
        <p class="muted" data-testid="location-insecure">
          This browser cannot give its location here: {INSECURE_LOCATION}.
        </p>
      ) : (
        <button type="button" disabled={locate.busy} data-testid="use-browser-location" onClick={() => void locate.run(fromBrowser)}>
          {locate.busy ? 'Asking the browser…' : "Use this browser's location"}
        </button>
      )}
      <span class="ok">{locate.done}</span>
      <Err msg={locate.error} />
      <div class="inline wrap">
        <label class="inline">
          Latitude{' '}
          <input
            type="number"
            step="any"
            min={-90}
            max={90}
            value={lat}
            data-testid="setup-lat"
            onInput={(e) => setLat((e.target as HTMLInputElement).value)}
          />
          <span class="unit">°</span>
        </label>
        <label class="inline">
          Longitude{' '}
          <input
            type="number"
            step="any"
            min={-180}
            max={180}
            value={lon}
            data-testid="setup-lon"
            onInput={(e) => setLon((e.target as HTMLInputElement).value)}
          />
          <span class="unit">°</span>
        </label>
      </div>
      <div class="inline">
        <button type="submit" class="primary" disabled={a.busy}>
          Next
        </button>
        <button type="button" onClick={next}>
          Skip
        </button>
      </div>
      <Err msg={a.error} />
    </form>
  );
}

function DashboardStep({ done }: { done: (id: string | null) => void }): JSX.Element {
  const widgets = useLoad(() => call('dashboards', 'getAppWidgets'));
  const [name, setName] = useState('Home');
  const [picked, setPicked] = useState<string[]>([]);
  const a = useAction();
  const all = Object.values(widgets.data ?? {});
  return (
    <form
      onSubmit={a.submit(async () => {
        // Two columns, the chosen widgets dealt into them in order.
        const columns = [0, 1].map((c) => ({ widgets: picked.filter((_, i) => i % 2 === c).map((appWidgetId) => ({ appWidgetId })) }));
        const made = await call('dashboards', 'createDashboard', { body: { name, columns } });
        done(made.id);
      })}
    >
      <label>
        Name <input value={name} data-testid="setup-dashboard-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <fieldset class="choice">
        <legend>Widgets from your apps</legend>
        {widgets.data && all.length === 0 ? <p class="muted">No app offers a widget yet; add some later with Arrange.</p> : null}
        {all.map((w) => (
          <label key={w.id} class="check">
            <input
              type="checkbox"
              checked={picked.includes(w.id)}
              onChange={() => setPicked((p) => (p.includes(w.id) ? p.filter((x) => x !== w.id) : [...p, w.id]))}
            />
            <span>
              {w.name} <span class="muted small">from {w.ownerName}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div class="inline">
        <button type="submit" class="primary" disabled={a.busy || name.trim() === ''} data-testid="setup-finish">
          <Icon name="check" /> Create and finish
        </button>
        <button type="button" onClick={() => done(null)}>
          Skip
        </button>
      </div>
      <Err msg={a.error ?? widgets.error} />
    </form>
  );
}

/**
 * `startAt`: the step the hub says the setup was left at (null: not begun). The step is stored on
 * the hub as the walk goes, so a reload (or another browser) resumes there, and saving the
 * language in the first step does not end the first run.
 */
export function FirstRun({ startAt, onDone }: { startAt: number | null; onDone: () => void }): JSX.Element {
  const [step, setStepHere] = useState(startAt ?? 0);
  const finish = useAction();
  const stored = useAction();
  const setStep = (at: number): void =>
    void stored.run(async () => {
      await call('system', 'setOptionSetupStep', { body: { value: at } });
      setStepHere(at);
    });
  useEffect(() => {
    if (startAt === null) setStep(0);
  }, []);
  const complete = (dashboard: string | null): void =>
    void finish.run(async () => {
      await call('system', 'setOptionSetupDone', { body: { value: true } });
      location.hash = dashboard ? `#/dashboards/${seg(dashboard)}` : '#/dashboards';
      onDone();
    });
  return (
    <main class="first-run" data-testid="first-run">
      <section class="card">
        <header>
          <h1>Welcome to hearth</h1>
          <button type="button" class="link" onClick={() => complete(null)}>
            Skip setup
          </button>
        </header>
        <Steps at={step} />
        <h2>{STEPS[step]}</h2>
        {step === 0 ? <LanguageStep next={() => setStep(1)} /> : null}
        {step === 1 ? <LocationStep next={() => setStep(2)} /> : null}
        {step === 2 ? <DashboardStep done={complete} /> : null}
        <Err msg={finish.error ?? stored.error} />
      </section>
    </main>
  );
}
