/**
 * The app store on the Apps page: the catalogue with each release's permissions and the owner's
 * network grant before its Install or Upgrade button, and install by id (another channel).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import type { App, AppsState } from '../types.js';
import { ActionButton, Err, Ok, useAction, useLoad } from '../ui.js';
import { NETWORK_SENTENCE, ReleasePermissions } from './app-permissions.js';

/** The app's icon, or a tile in its brand colour when it ships none (decorative: the name is beside it). */
export function AppIcon({ app }: { app: Pick<App, 'icon' | 'brandColor'> }): JSX.Element {
  return app.icon ? (
    <img class="app-icon" src={app.icon} alt="" width={32} height={32} data-testid="app-icon" />
  ) : (
    <span class="app-icon tile" style={{ background: app.brandColor ?? 'var(--accent)' }} aria-hidden="true">
      <Icon name="apps" size={18} />
    </span>
  );
}

/**
 * The catalogue; re-read when the installed apps change, so its buttons follow them. Each
 * release shows what it asks for before its button: the person approves what they see, and the
 * hub refuses a package that asks for anything else.
 */
export function Store({
  installed,
  apps: installedApps,
  containment,
}: {
  installed: string;
  apps: Record<string, App> | undefined;
  containment: AppsState['containment'] | undefined;
}): JSX.Element {
  const store = useLoad(() => call('apps', 'getAppStore'), [installed]);
  if (store.error) return <Err msg={store.error} />;
  if (!store.data) return <p class="muted">Loading the catalogue…</p>;
  const apps = Object.values(store.data.apps);
  // Why store apps are not kept up to date (a plain-http store without a pinned key), if so.
  const updatesOff = store.data.automaticUpdatesOff ? (
    <p class="notice" data-updates-off>
      {store.data.automaticUpdatesOff}.
    </p>
  ) : null;
  if (apps.length === 0) {
    return (
      <>
        {updatesOff}
        <p class="muted">
          This hub's app store has no apps yet: get apps from their repository or a file below.{' '}
          <span class="small" title={store.data.location}>
            (For app makers: add one with hearth app pack.)
          </span>
        </p>
      </>
    );
  }
  return (
    <>
      {updatesOff}
      <ul class="store">
        {apps.map((app) => {
          const channel = app.installed?.channel ?? 'stable';
          const offered = app.channels[channel] ?? app.channels.stable ?? Object.values(app.channels)[0];
          const current = app.installed?.version;
          const upgradeTo = app.installed && offered && offered.version !== current ? offered.version : null;
          const action = !app.installed ? 'Install' : upgradeTo ? `Upgrade to ${upgradeTo}` : null;
          // An upgrade compares with what the installed version asks for, to mark what is new.
          const installedPermissions = upgradeTo ? (installedApps?.[app.id]?.permissions ?? null) : null;
          return (
            <li key={app.id} data-store-app={app.id}>
              <div class="inline">
                <AppIcon app={app} />
                <strong>{app.name}</strong> <span class="muted">{app.id}</span>
              </div>
              {app.description ? <div class="muted">{app.description}</div> : null}
              {offered ? <ReleasePermissions release={offered} installed={installedPermissions} containment={containment} /> : null}
              <div class="inline wrap">
                <span>
                  {current
                    ? `installed ${current}`
                    : Object.entries(app.channels)
                        .map(([c, e]) => `${c} ${e.version}`)
                        .join(', ')}
                </span>
                {action ? (
                  <InstallRelease
                    appId={app.id}
                    channel={app.channels[channel] ? channel : undefined}
                    action={action}
                    // A new install asks for the network grant (what the release asks for is ticked);
                    // an upgrade keeps what the owner gave the app.
                    askNetwork={app.installed ? null : (offered?.network ?? false)}
                  />
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The Install (or Upgrade) button of a store release, with the network grant for a new install. */
function InstallRelease(p: { appId: string; channel: string | undefined; action: string; askNetwork: boolean | null }): JSX.Element {
  const [network, setNetwork] = useState(p.askNetwork ?? false);
  return (
    <>
      {p.askNetwork !== null ? (
        <label class="inline" data-testid="install-network">
          <input type="checkbox" checked={network} onChange={(e) => setNetwork((e.target as HTMLInputElement).checked)} /> {NETWORK_SENTENCE}
        </label>
      ) : null}
      <ActionButton
        label={p.action}
        busyLabel="Installing… (download, verify, start)"
        kind="primary"
        onRun={() =>
          call('apps', 'installFromAppStore', {
            body: { id: p.appId, ...(p.channel ? { channel: p.channel } : {}), ...(p.askNetwork !== null ? { network } : {}) },
          })
        }
      />
    </>
  );
}

export function Install(): JSX.Element {
  const [id, setId] = useState('');
  const [channel, setChannel] = useState('');
  const [network, setNetwork] = useState(false);
  const a = useAction();
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        // An upgrade keeps the grant the app has; the box only gives one (a new install's).
        const app = await call('apps', 'installFromAppStore', { body: { id, ...(channel ? { channel } : {}), ...(network ? { network } : {}) } });
        return `installed ${app.name} ${app.version}`;
      })}
    >
      <input class="grow" placeholder="app id, e.g. com.example.clock" value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} />
      <input placeholder="channel" value={channel} size={8} onInput={(e) => setChannel((e.target as HTMLInputElement).value)} />
      <label class="inline">
        <input type="checkbox" checked={network} onChange={(e) => setNetwork((e.target as HTMLInputElement).checked)} /> {NETWORK_SENTENCE}
      </label>
      <button type="submit" class="primary" disabled={a.busy || !id}>
        {a.busy ? 'Installing… (download, verify, start)' : 'Install'}
      </button>
      {a.busy ? <progress /> : null}
      <Err msg={a.error} />
      <Ok msg={a.done} />
    </form>
  );
}
