/**
 * Backups on the System page: the schedule in words (on/off), retention, the last result and the
 * last restore; "Back up now" with live progress; every archive with Download, Verify and
 * Restore; and Upload (the hub verifies the file before it keeps it). A restore restarts the hub:
 * the page waits for it to answer again and then says where the replaced data went.
 */
import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { ApiError, download, upload } from '../api.js';
import { call, path, subscribe } from '../client.js';
import { FileForm } from '../file-form.js';
import { Icon } from '../icons.js';
import type { ArchiveSummary, BackupState } from '../types.js';
import { ActionButton, Card, Err, formatBytes, formatTime, Ok, useAction, useLoad } from '../ui.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A cron expression in words for the common shapes ("every day at 03:30"), else as it is. */
export function cronWords(expr: string): string {
  const f = expr.trim().split(/\s+/);
  if (f.length !== 5) return `on the schedule ${expr}`;
  const [m, h, dom, mon, dow] = f as [string, string, string, string, string];
  const time = /^\d+$/.test(m) && /^\d+$/.test(h) ? `${h.padStart(2, '0')}:${m.padStart(2, '0')}` : null;
  if (time && dom === '*' && mon === '*' && dow === '*') return `every day at ${time}`;
  if (time && dom === '*' && mon === '*' && /^[0-6]$/.test(dow)) return `every ${DAYS[Number(dow)]} at ${time}`;
  if (/^\d+$/.test(m) && h === '*' && dom === '*' && mon === '*' && dow === '*') return `every hour at :${m.padStart(2, '0')}`;
  return `on the schedule ${expr}`;
}

function verifiedSentence(s: ArchiveSummary): string {
  const left = s.inconsistent.length > 0 ? `; ${s.inconsistent.length} file(s) changed while read and will be left out` : '';
  return `verified: ${s.files} files, made ${formatTime(s.createdAt)} by hearth ${s.hubVersion}${left}`;
}

/**
 * Waits until the hub answers with a newer restore record than `before` (it restarts meanwhile:
 * no answer, or 503 while it starts). A refusal of the token (401) ends the wait: the page is
 * signed out then, and asking on would only count against the hub's failed-sign-in limit.
 */
async function waitForRestart(before: string | null): Promise<BackupState> {
  for (let i = 0; i < 240; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      const s = await call('backup', 'getState');
      if (s.lastRestore && s.lastRestore.at !== before) return s;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw err;
    }
  }
  throw new Error('the hub did not come back within two minutes; check its log (journalctl -u hearth)');
}

/** The restore's confirmation: what this sign-in brings back and what stays as it is, said before. */
export function restoreQuestion(createdAt: string, plan: BackupState['restorePlan']): string {
  return [
    `Restore the backup of ${formatTime(createdAt)}?`,
    `Brought back from the backup: ${plan.brings.join('; ')}.`,
    `Left as they are now: ${plan.keeps.join('; ')}.`,
    'The hub restarts into it; what it holds now is kept aside as a pre-restore copy.',
  ].join('\n\n');
}

function ArchiveRow({
  b,
  onRestored,
  lastRestoreAt,
  plan,
}: {
  b: BackupState['backups'][number];
  onRestored: () => void;
  lastRestoreAt: string | null;
  plan: BackupState['restorePlan'];
}): JSX.Element {
  const verify = useAction();
  const restore = useAction();
  const dl = useAction();
  const archive = { params: { file: b.file } };
  return (
    <tr data-archive={b.file}>
      <td>
        <div>{formatTime(b.createdAt)}</div>
        <div class="muted small break">{b.file}</div>
        <Ok msg={verify.done} testId="verified" />
        <Err msg={verify.error ?? restore.error ?? dl.error} />
        {restore.busy ? (
          <p class="progress" role="status" data-testid="restoring">
            <progress /> Restoring; the hub restarts…
          </p>
        ) : null}
      </td>
      <td class="num">{formatBytes(b.size)}</td>
      <td class="row-actions">
        <button
          type="button"
          disabled={dl.busy}
          onClick={() => void dl.run(() => download(path('backup', 'downloadBackup', archive), b.file))}
          aria-label={`Download ${b.file}`}
        >
          <Icon name="download" /> <span class="hide-narrow">Download</span>
        </button>
        <button
          type="button"
          disabled={verify.busy}
          onClick={() => void verify.run(async () => verifiedSentence(await call('backup', 'verifyBackup', archive)))}
          aria-label={`Verify ${b.file}`}
        >
          <Icon name="check" /> <span class="hide-narrow">{verify.busy ? 'Verifying…' : 'Verify'}</span>
        </button>
        <button
          type="button"
          class="danger"
          disabled={restore.busy}
          data-testid="restore"
          aria-label={`Restore ${b.file}`}
          onClick={() => {
            if (!window.confirm(restoreQuestion(b.createdAt, plan))) return;
            void restore.run(async () => {
              await call('backup', 'restoreBackup', archive);
              await waitForRestart(lastRestoreAt);
              onRestored();
            });
          }}
        >
          <Icon name="restore" /> <span class="hide-narrow">Restore</span>
        </button>
      </td>
    </tr>
  );
}

function Upload({ onAdded }: { onAdded: () => void }): JSX.Element {
  return (
    <FileForm
      label="Upload a backup"
      accept=".gz,.tar.gz,application/gzip"
      missing="choose a backup file (hearth-backup-….tar.gz) first"
      busy="Uploading and verifying…"
      testIds={{ file: 'upload-file', send: 'upload', done: 'uploaded' }}
      send={async (file) => {
        const s = await upload<ArchiveSummary>(path('backup', 'uploadBackup'), file, 'application/gzip');
        onAdded();
        return s.alreadyThere ? `already here as ${s.file}; ${verifiedSentence(s)}` : `added as ${s.file}; ${verifiedSentence(s)}`;
      }}
    />
  );
}

function Facts({ s, onChanged }: { s: BackupState; onChanged: () => void }): JSX.Element {
  const toggle = useAction();
  const r = s.lastRestore;
  return (
    <dl class="facts">
      <dt>Automatic</dt>
      <dd>
        <label class="check">
          <input
            type="checkbox"
            checked={s.enabled}
            disabled={toggle.busy}
            data-testid="backup-enabled"
            onChange={(e) =>
              void toggle.run(() =>
                call('backup', 'setOptionAutomaticBackupsEnabled', { body: { value: (e.target as HTMLInputElement).checked } }).then(onChanged),
              )
            }
          />
          <span>{s.enabled ? `${cronWords(s.schedule)} (${s.timeZone}); next ${formatTime(s.nextRun)}` : 'off'}</span>
        </label>
        <Err msg={toggle.error} />
      </dd>
      <dt>Keeps</dt>
      <dd>the newest {s.keep} backups; older ones are removed after each new one verifies</dd>
      <dt>Last result</dt>
      <dd data-testid="last-result">
        {s.lastError ? (
          <span class="err">
            failed {formatTime(s.lastError.at)}: {s.lastError.message}
          </span>
        ) : s.lastBackup ? (
          `done ${formatTime(s.lastBackup.createdAt)}, ${formatBytes(s.lastBackup.size)} in ${(s.lastBackup.durationMs / 1000).toFixed(1)} s`
        ) : (
          'no backup yet'
        )}
      </dd>
      <dt>Location</dt>
      <dd class="break">{s.location}</dd>
      {r ? (
        <>
          <dt>Last restore</dt>
          <dd data-testid="last-restore" class={r.ok ? '' : 'err'}>
            {r.ok
              ? `${formatTime(r.at)}: the backup of ${formatTime(r.createdAt)}. The data it replaced is kept in ${r.previousData ?? '(nothing to keep)'}${r.previousApps ? ` and ${r.previousApps}` : ''}.`
              : `${formatTime(r.at)} failed: ${r.error ?? 'unknown'}; the hub runs on the data it had.`}
            {r.ok && r.tokensAdded > 0 ? ` ${r.tokensAdded} of its tokens joined the hub's own (see Tokens).` : ''}
            {r.ok && r.leftOut.length > 0 ? (
              <ul class="small" data-testid="restore-left-out">
                {r.leftOut.map((l) => (
                  <li key={l}>Left out: {l}</li>
                ))}
              </ul>
            ) : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** The copies restores kept of what they replaced: where each is, and Delete. */
function PreRestoreCopies({ s, onChanged }: { s: BackupState; onChanged: () => void }): JSX.Element | null {
  if (s.preRestore.length === 0) return null;
  return (
    <section data-testid="pre-restore">
      <h3>Kept from before a restore</h3>
      <p class="muted small">
        Each restore keeps the data and apps it replaced, here in the backup folder; the newest {s.preRestoreKeep} stay. To go back to one, stop the hub and
        copy it back by hand.
      </p>
      <ul class="plain">
        {s.preRestore.map((c) => (
          <li key={c.name} data-pre-restore={c.name} class="inline wrap">
            <span>
              Before the restore of {formatTime(c.at)}: <span class="break small">{[c.data, c.apps].filter((p) => p !== null).join(' and ')}</span>
            </span>
            <ActionButton
              label="Delete"
              busyLabel="Deleting…"
              kind="danger"
              ariaLabel={`Delete the copy from before the restore of ${formatTime(c.at)}`}
              confirm={`Delete the copy of the data and apps from before the restore of ${formatTime(c.at)}? It cannot be undone.`}
              onRun={() => call('backup', 'deletePreRestore', { params: { name: c.name } }).then(onChanged)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Backups(): JSX.Element {
  const state = useLoad(() => call('backup', 'getState'));
  useEffect(
    () =>
      subscribe('backup', (event) => {
        // A job started or moved on: the state (with the list of archives) is cheap to re-read.
        if (event.name.startsWith('backup.')) state.reload();
      }),
    [],
  );
  const s = state.data;
  const running = s?.running === true;
  return (
    <Card
      title="Backups"
      actions={
        <ActionButton
          label="Back up now"
          busyLabel="Starting…"
          kind="primary"
          testId="backup-now"
          disabled={running}
          onRun={() => call('backup', 'scheduleBackup').then(state.reload)}
        />
      }
    >
      <Err msg={state.error} />
      {s ? (
        <>
          {running ? (
            <p class="progress" role="status" data-testid="backup-running">
              <progress /> Backing up since {formatTime(s.job?.startedAt)}…
            </p>
          ) : null}
          <Facts s={s} onChanged={state.reload} />
          <table class="backups" data-testid="backups">
            <tbody>
              {s.backups.length === 0 ? (
                <tr>
                  <td class="muted">No backups yet.</td>
                </tr>
              ) : null}
              {s.backups.map((b) => (
                <ArchiveRow key={b.file} b={b} onRestored={state.reload} lastRestoreAt={s.lastRestore?.at ?? null} plan={s.restorePlan} />
              ))}
            </tbody>
          </table>
          <Upload onAdded={state.reload} />
          <PreRestoreCopies s={s} onChanged={state.reload} />
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </Card>
  );
}
