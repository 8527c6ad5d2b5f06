/**
 * Apps: every installed app with its description, state, crashed flag and message, whether
 * hearth can run it (and what of it hearth does not run), its permissions, cpu/mem, the
 * lifecycle actions, its settings page (its own, at #/apps/<id>/settings) and its declared
 * settings, its stdout/stderr tail, how apps are contained on this hub, and the app store's
 * catalogue with each release's permissions before install/upgrade (or install by id, for
 * another channel). State changes arrive live over the apps namespace.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../client.js';
import type { App } from '../types.js';
import { ActionButton, Card, Err, formatBytes, label, useAction, useDraft, useHash, useLiveCollection, useLoad } from '../ui.js';
import { ContainmentLine, NetworkGrant, PermissionList } from './app-permissions.js';
import { AppSettingsPage, settingsRoute, settingsRouteApp } from './app-settings-page.js';
import { AppIcon, Install, Store } from './app-store.js';
import { UploadApp } from './app-upload.js';

const of = (id: string) => ({ params: { id } });

function Setting({ app, def, value, onSaved }: { app: App; def: Record<string, unknown>; value: unknown; onSaved: () => void }): JSX.Element {
  const id = String(def.id);
  const type = String(def.type);
  const shown = value === undefined ? def.default : value;
  const [draft, setDraft] = useDraft<unknown>(shown);
  const a = useAction();
  const save = (v: unknown): void => void a.run(() => call('apps', 'setAppSetting', { params: { id: app.id, name: id }, body: { value: v } }).then(onSaved));
  let input: JSX.Element;
  if (type === 'checkbox') {
    input = <input type="checkbox" checked={draft === true} onChange={(e) => save((e.target as HTMLInputElement).checked)} />;
  } else if (type === 'dropdown') {
    const values = (def.values as Array<{ id: string; label: unknown }> | undefined) ?? [];
    input = (
      <select value={String(draft ?? '')} onChange={(e) => save((e.target as HTMLSelectElement).value)}>
        {values.map((o) => (
          <option key={o.id} value={o.id}>
            {label(o.label)}
          </option>
        ))}
      </select>
    );
  } else {
    const numeric = type === 'number';
    input = (
      <form
        class="inline"
        // The hub's sentence (naming the setting by its label) says what is wrong, not a browser bubble.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save(numeric ? Number(draft) : draft);
        }}
      >
        <input
          type={(numeric ? 'number' : type === 'password' ? 'password' : 'text') as 'text'}
          value={draft === undefined || draft === null ? '' : String(draft)}
          aria-label={label(def.label) || id}
          {...(numeric ? { min: def.min as number | undefined, max: def.max as number | undefined, step: (def.step as number | undefined) ?? 'any' } : {})}
          onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
        />
        {numeric && label(def.units) ? <span class="unit">{label(def.units)}</span> : null}
        <button type="submit" disabled={a.busy}>
          {a.busy ? 'Saving…' : 'Save'}
        </button>
      </form>
    );
  }
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `input`, made above for the setting's type
    <label class={type === 'checkbox' ? 'check' : ''}>
      <span>{label(def.label) || id}</span>
      {input}
      <Err msg={a.error} />
    </label>
  );
}

function Settings({ app }: { app: App }): JSX.Element {
  const values = useLoad(() => call('apps', 'getAppSettings', of(app.id)), [app.id]);
  if (values.error) return <Err msg={values.error} />;
  if (!values.data) return <p class="muted">Loading settings…</p>;
  return (
    <div class="settings">
      {app.settings.map((def) => (
        <Setting key={String(def.id)} app={app} def={def} value={values.data![String(def.id)]} onSaved={values.reload} />
      ))}
    </div>
  );
}

/** How often the output panel asks for what the app wrote since, and how much of it it keeps. */
const FOLLOW_MS = 2000;
const KEEP_CHARS = 64 * 1024;
const tail = (text: string): string => (text.length > KEEP_CHARS ? text.slice(text.length - KEEP_CHARS) : text);

/** The app's output, followed live while the panel is open (as `homey app run` streams it). */
function Logs({ app }: { app: App }): JSX.Element {
  const [out, setOut] = useState({ stdout: '', stderr: '' });
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  useEffect(() => {
    let cursors = { stdout: 0, stderr: 0 };
    let stopped = false;
    let timer: number | undefined;
    setOut({ stdout: '', stderr: '' });
    const follow = async (): Promise<void> => {
      try {
        const log = await call('apps', 'getAppLog', { ...of(app.id), query: { stdout: String(cursors.stdout), stderr: String(cursors.stderr) } });
        if (stopped) return;
        cursors = { stdout: log.stdout.next, stderr: log.stderr.next };
        if (log.stdout.text || log.stderr.text) setOut((o) => ({ stdout: tail(o.stdout + log.stdout.text), stderr: tail(o.stderr + log.stderr.text) }));
        setError(null);
      } catch (err) {
        if (!stopped) setError(err instanceof Error ? err.message : String(err));
      }
      if (!stopped && live) timer = window.setTimeout(() => void follow(), FOLLOW_MS);
    };
    void follow();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [app.id, live]);
  return (
    <div class="logs" data-testid="app-output">
      <div class="toolbar">
        <b>Output</b>
        <label class="inline">
          <input type="checkbox" checked={live} onChange={(e) => setLive((e.target as HTMLInputElement).checked)} /> Follow as it is written
        </label>
      </div>
      <Err msg={error} />
      <h4>stdout</h4>
      <pre data-testid="app-stdout">{out.stdout.split('\n').slice(-200).join('\n') || '(empty)'}</pre>
      <h4>stderr</h4>
      <pre data-testid="app-stderr">{out.stderr.split('\n').slice(-200).join('\n') || '(empty)'}</pre>
    </div>
  );
}

/**
 * For an app fetched from a repository: a newer release, when one is out, and its upgrade (the
 * release fetched and checked, what it asks for confirmed, then installed), as HACS does: never
 * on its own.
 */
function SourceUpdateLine({ app, source }: { app: App; source: NonNullable<App['source']> }): JSX.Element | null {
  const update = useLoad(() => call('apps', 'getAppSourceUpdate', of(app.id)), [app.id, source.commit]);
  const a = useAction();
  const latest = update.data?.latest;
  if (!update.data?.newer || !latest) return update.error ? <p class="muted small">{update.error}</p> : null;
  return (
    <div class="notice small" data-testid="source-update">
      {latest.name ? `${latest.name} (${latest.tag})` : latest.tag} is out.{' '}
      <button
        type="button"
        disabled={a.busy}
        data-testid="source-upgrade"
        onClick={() =>
          void a.run(async () => {
            const staged = await call('apps', 'getAppFromRepository', { body: { repo: `${source.repo}@${latest.tag}` } });
            const asks = staged.permissions.map((p) => p.sentence).join('; ') || 'no permissions';
            if (
              !window.confirm(`Upgrade ${app.name} to ${staged.version} (${latest.tag}, commit ${staged.source?.commit.slice(0, 7)})? It asks for: ${asks}.`)
            ) {
              await call('apps', 'discardUploadedApp', { params: { upload: staged.upload } });
              return;
            }
            await call('apps', 'installUploadedApp', { params: { upload: staged.upload }, body: {} });
          })
        }
      >
        {a.busy ? 'Getting it…' : `Get ${latest.tag}`}
      </button>
      <Err msg={a.error} />
    </div>
  );
}

/** A folded list of the hub's sentences about an app (nothing when there are none). */
function Sentences({ testId, title, lines }: { testId: string; title: string; lines: string[] }): JSX.Element | null {
  if (lines.length === 0) return null;
  return (
    <details data-testid={testId}>
      <summary class="muted">
        {title} ({lines.length})
      </summary>
      <ul>
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </details>
  );
}

function AppCard({ app }: { app: App }): JSX.Element {
  const [open, setOpen] = useState<'' | 'settings'>('');
  const [advanced, setAdvanced] = useState(false);
  const stateClass = app.crashed ? 'bad' : app.state === 'running' ? 'good' : 'idle';
  return (
    <section class="card app" data-testid={`app-${app.id}`}>
      <header>
        <AppIcon app={app} />
        <h2 class="grow">
          {app.name}{' '}
          <span class="muted small">
            {app.id} {app.version}
          </span>
        </h2>
        <span class={`badge ${stateClass}`} data-testid="app-state">
          {app.state}
          {app.crashed ? ' · crashed' : ''}
        </span>
      </header>
      <div class="app-about">
        {app.image ? <img class="app-image" src={app.image} alt="" width={125} height={88} loading="lazy" data-testid="app-image" /> : null}
        {app.description ? <p data-testid="app-description">{app.description}</p> : null}
      </div>
      {!app.compatible ? (
        <p class="notice" data-testid="app-incompatible">
          hearth cannot run this app: {app.incompatibleReason ?? 'it needs what this hub lacks'}.
        </p>
      ) : null}
      <Sentences testId="app-unsupported" title="What hearth does not run of this app" lines={app.unsupported} />
      <Sentences testId="app-warnings" title="Warnings about its app.json" lines={app.warnings} />
      {app.crashed || app.crashedMessage ? <p class="err">{app.crashedMessage ?? 'crashed'}</p> : null}
      <div data-testid="app-permissions">
        <h4>Permissions</h4>
        <NetworkGrant appId={app.id} granted={app.network} />
        <PermissionList details={app.permissionDetails} />
      </div>
      <p class="muted small">
        {/* 0 bytes means "not sampled yet" (a process that just started, or a stopped app). */}
        cpu {app.usage.mem > 0 ? `${app.usage.cpu.toFixed(1)}%` : '–'} · mem {app.usage.mem > 0 ? formatBytes(app.usage.mem) : '–'} · restarts {app.exitCount} ·{' '}
        {app.source ? (
          <span data-testid="app-source">
            from {app.source.repo}
            {app.source.ref ? ` ${app.source.ref}` : ''} at <code>{app.source.commit.slice(0, 7)}</code>
          </span>
        ) : (
          app.origin
        )}
        {app.channel ? ` (${app.channel})` : ''}
      </p>
      {app.source ? <SourceUpdateLine app={app} source={app.source} /> : null}
      <div class="actions wrap">
        {app.enabled ? (
          <ActionButton label="Disable" busyLabel="Disabling…" testId="disable" onRun={() => call('apps', 'disableApp', of(app.id))} />
        ) : (
          <ActionButton label="Enable" busyLabel="Enabling…" testId="enable" kind="primary" onRun={() => call('apps', 'enableApp', of(app.id))} />
        )}
        <ActionButton label="Restart" busyLabel="Restarting…" disabled={!app.enabled} onRun={() => call('apps', 'restartApp', of(app.id))} />
        {/* Two things, two words: the app's own page ("Configure", as Homey says) and the form of
            the settings its manifest declares ("Settings"). */}
        {app.settingsPage ? (
          <a class="button" href={settingsRoute(app.id)} data-testid="settings-page-link">
            Configure
          </a>
        ) : null}
        {app.settings.length > 0 || !app.settingsPage ? (
          <button
            type="button"
            class={open === 'settings' ? 'active' : ''}
            onClick={() => setOpen(open === 'settings' ? '' : 'settings')}
            disabled={app.settings.length === 0}
          >
            Settings
          </button>
        ) : null}
        <ActionButton
          label="Uninstall"
          busyLabel="Uninstalling…"
          kind="danger"
          confirm={
            app.origin === 'local'
              ? `Uninstall ${app.name}? It is a local app: its folder is moved out of the apps folder into the hub's data folder (removed-apps), not deleted. Its settings are kept.`
              : `Uninstall ${app.name}? Its settings are kept unless you remove them later.`
          }
          onRun={() => call('apps', 'uninstallApp', of(app.id))}
        />
      </div>
      {open === 'settings' ? <Settings app={app} /> : null}
      {/* What only someone chasing a problem needs: a garbage collection, the raw output. */}
      <details class="advanced" onToggle={(e) => setAdvanced((e.target as HTMLDetailsElement).open)}>
        <summary>Advanced</summary>
        <div class="actions wrap">
          <ActionButton
            label="Collect garbage"
            busyLabel="Collecting…"
            disabled={app.state !== 'running'}
            onRun={() => call('apps', 'garbageCollectApp', of(app.id))}
          />
        </div>
        {advanced ? <Logs app={app} /> : null}
      </details>
    </section>
  );
}

export function AppsPage(): JSX.Element {
  const apps = useLoad(() => call('apps', 'getApps'));
  const state = useLoad(() => call('apps', 'getAppsState'));
  // State, crashes and the cpu/mem samples (every 5 s while they change) all arrive as app.update.
  useLiveCollection('apps', 'app', apps);
  const settingsOf = settingsRouteApp(useHash());
  if (settingsOf !== null) {
    const app = apps.data?.[settingsOf];
    if (app?.settingsPage) return <AppSettingsPage key={app.id} app={app} />;
    return (
      <Card title="Configure" actions={<a href="#/apps">Back to apps</a>}>
        {apps.error ? (
          <Err msg={apps.error} />
        ) : !apps.data ? (
          <p class="muted">Loading…</p>
        ) : (
          <p class="muted">{settingsOf} is not installed, or has no settings page.</p>
        )}
      </Card>
    );
  }
  return (
    <>
      {state.data ? <ContainmentLine state={state.data} /> : <Err msg={state.error} />}
      <Card title="App store">
        <Store
          installed={Object.values(apps.data ?? {})
            .map((a) => `${a.id}@${a.version}`)
            .join(',')}
          apps={apps.data}
          containment={state.data?.containment}
        />
        <details>
          <summary>Install by id (another channel)</summary>
          <Install />
        </details>
        <details data-testid="get-from-file">
          <summary>Get apps from a repository or a file</summary>
          <UploadApp />
        </details>
      </Card>
      {apps.error ? <Err msg={apps.error} /> : null}
      {!apps.data ? <p class="muted">Loading…</p> : null}
      {apps.data && Object.keys(apps.data).length === 0 ? <p class="muted">No apps installed.</p> : null}
      <div class="grid">
        {Object.values(apps.data ?? {}).map((app) => (
          <AppCard key={app.id} app={app} />
        ))}
      </div>
    </>
  );
}
