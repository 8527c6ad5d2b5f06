/**
 * Apps → Get apps: an app fetched from its GitHub repository (owner/name[@ref], pinned to the
 * commit that ref is now) or an archive of an app folder uploaded (a .tar.gz, as `homey app
 * build` leaves it or of the folder itself), then shown as the hub read it, name, icon,
 * permissions, drivers and the commit, before Install (with the owner's network grant) or Discard.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { UploadedApp } from '../../managers/apps/views.js';
import { upload } from '../api.js';
import { call, path } from '../client.js';
import { FileForm } from '../file-form.js';
import { Err, useAction } from '../ui.js';
import { NETWORK_SENTENCE, PermissionList } from './app-permissions.js';
import { AppIcon } from './app-store.js';

type Staged = z.infer<ReturnType<typeof UploadedApp>>;

/** Get apps: from a GitHub repository, or from an archive of an app folder. */
export function UploadApp(): JSX.Element {
  const [repo, setRepo] = useState('');
  const [staged, setStaged] = useState<Staged | null>(null);
  const [network, setNetwork] = useState(false);
  const send = useAction();
  const act = useAction();
  // A build goes on after the fetch answered: asked again every second until it ends.
  const building = staged?.build?.state === 'building' ? staged.upload : null;
  useEffect(() => {
    if (!building) return;
    let live = true;
    const timer = setInterval(() => {
      void call('apps', 'getUploadedApp', { params: { upload: building } })
        .then((s) => {
          if (live) setStaged(s);
        })
        .catch(() => undefined);
    }, 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [building]);
  if (staged) {
    const ready = staged.build === null || staged.build.state === 'built';
    return (
      <div class="upload-review" data-testid="upload-review">
        <div class="inline">
          <AppIcon app={{ icon: staged.icon, brandColor: null }} />
          <b data-testid="upload-name">{staged.name}</b> <span class="muted">{staged.version}</span>
          {staged.replaces ? <span class="badge warn">replaces {staged.replaces}</span> : null}
        </div>
        {staged.source ? (
          <p class="small" data-testid="upload-source">
            From {staged.source.repo}
            {staged.source.ref ? ` ${staged.source.ref}` : ''}, commit <code>{staged.source.commit.slice(0, 7)}</code>: this commit is what gets installed.
          </p>
        ) : null}
        {staged.description ? <p class="muted">{staged.description}</p> : null}
        <PermissionList details={staged.permissions} />
        {staged.drivers.length > 0 ? (
          <p class="small" data-testid="upload-drivers">
            Adds devices: {staged.drivers.map((d) => d.name).join(', ')}
          </p>
        ) : null}
        {staged.build ? <BuildStatus build={staged.build} /> : null}
        <label class="inline small">
          <input type="checkbox" checked={network} onChange={(e) => setNetwork((e.target as HTMLInputElement).checked)} /> {NETWORK_SENTENCE}
        </label>
        <div class="inline">
          <button
            type="button"
            class="primary"
            disabled={act.busy || !ready}
            data-testid="upload-install"
            onClick={() =>
              void act.run(async () => {
                const app = await call('apps', 'installUploadedApp', { params: { upload: staged.upload }, body: { network } });
                setStaged(null);
                return `installed ${app.name} ${app.version}`;
              })
            }
          >
            {act.busy ? 'Installing…' : 'Install'}
          </button>
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              void act.run(async () => {
                await call('apps', 'discardUploadedApp', { params: { upload: staged.upload } });
                setStaged(null);
              })
            }
          >
            Discard
          </button>
        </div>
        <Err msg={act.error} />
      </div>
    );
  }
  return (
    <>
      <form
        class="inline wrap"
        onSubmit={send.submit(async () => {
          if (repo.trim() === '') throw new Error('give the repository as owner/name, e.g. athombv/com.athom.homeyscript');
          setStaged(await call('apps', 'getAppFromRepository', { body: { repo: repo.trim() } }));
          setRepo('');
        })}
      >
        <label class="inline">
          <span>A GitHub repository</span>
          <input placeholder="owner/name or owner/name@v1.2.0" value={repo} data-testid="repo" onInput={(e) => setRepo((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={send.busy || repo.trim() === ''} data-testid="repo-fetch">
          {send.busy ? 'Fetching and checking…' : 'Fetch'}
        </button>
        <Err msg={send.error} />
      </form>
      <UploadForm onStaged={setStaged} done={act.done} />
    </>
  );
}

/** Where the app's build is: what it does now, the last lines it printed, or why it failed. */
function BuildStatus({ build }: { build: NonNullable<Staged['build']> }): JSX.Element {
  return (
    <div class="stack small" data-testid="upload-build" data-state={build.state}>
      {build.state === 'failed' ? (
        <Err msg={`The app could not be built: ${build.error ?? 'the build failed'}. Nothing was installed.`} />
      ) : (
        <p role="status">
          {build.state === 'building' ? `Building the app (this may take minutes on a small board): ${build.sentence}…` : 'Built: ready to install.'}
        </p>
      )}
      {build.lines.length > 0 ? (
        <details open={build.state === 'failed'}>
          <summary>What the build printed</summary>
          <pre>{build.lines.join('\n')}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** An archive of an app folder chosen from this computer. */
function UploadForm({ onStaged, done }: { onStaged: (s: Staged) => void; done: string | null }): JSX.Element {
  return (
    <FileForm
      label="An app folder, archived (.tar.gz)"
      accept=".gz,.tgz,.tar.gz,application/gzip"
      missing="choose an archive of an app folder (.tar.gz) first"
      busy="Uploading and checking…"
      testIds={{ file: 'upload-app-file', send: 'upload-app', done: 'upload-installed' }}
      send={async (file) => {
        onStaged(await upload<Staged>(path('apps', 'uploadApp'), file, 'application/gzip'));
        return undefined;
      }}
      done={done}
    />
  );
}
