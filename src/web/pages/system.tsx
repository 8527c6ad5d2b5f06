/**
 * System, part one: speech (voices, install from the engine's catalogue, speed, voice, a box to
 * say a sentence). Backups are in backups.tsx, the hub's other settings (location, language,
 * units, PIN, tokens) in settings.tsx.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { ActionButton, Card, Err, ErrWithRaw, Ok, useAction, useLiveCollection, useLoad } from '../ui.js';
import type { Voice } from '../types.js';
import { Backups } from './backups.js';
import { HubSettings } from './settings.js';

const SPEECH = '/api/manager/speech-output';

function Say(): JSX.Element {
  const [text, setText] = useState('');
  const a = useAction();
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        const r = await api<{ voice: string; durationMs: number }>('POST', `${SPEECH}/say`, { text });
        return `spoken with ${r.voice} in ${(r.durationMs / 1000).toFixed(1)} s`;
      })}
    >
      <input class="grow" placeholder="A sentence to say" value={text} data-testid="say-text" onInput={(e) => setText((e.target as HTMLInputElement).value)} />
      <button type="submit" class="primary" disabled={a.busy || !text.trim()} data-testid="say">
        {a.busy ? 'Speaking…' : 'Say'}
      </button>
      <ErrWithRaw msg={a.error} />
      <Ok msg={a.done} testId="spoken" />
    </form>
  );
}

function OptionSelect({ path, choices, testId }: { path: string; choices: Array<[string, string]>; testId?: string }): JSX.Element {
  const opt = useLoad(() => api<{ value: unknown }>('GET', path), [path]);
  const a = useAction();
  const value = opt.data?.value === null || opt.data?.value === undefined ? '' : String(opt.data.value);
  return (
    <span class="action">
      <select
        value={value}
        disabled={a.busy || !opt.data}
        data-testid={testId}
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value;
          void a.run(() => (v === '' ? api('DELETE', path) : api('PUT', path, { value: v })).then(opt.reload));
        }}
      >
        {(value === '' || choices.some(([v]) => v === value) ? choices : [...choices, [value, value] as [string, string]]).map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      <Err msg={a.error ?? opt.error} />
    </span>
  );
}

function Speech(): JSX.Element {
  const voices = useLoad(() => api<Record<string, Voice>>('GET', `${SPEECH}/voice/`));
  const [catalogue, setCatalogue] = useState<Record<string, Voice> | null>(null);
  const cat = useAction();
  const [install, setInstall] = useState('');
  useLiveCollection('speech-output', 'voice', voices);
  const list = Object.values(voices.data ?? {});
  return (
    <Card title="Speech">
      <Say />
      <div class="row wrap">
        <label class="inline">
          Voice <OptionSelect path={`${SPEECH}/option/voice`} choices={[['', 'hub language default'], ...list.map((v): [string, string] => [v.id, v.name])]} />
        </label>
        <label class="inline">
          Speed{' '}
          <OptionSelect
            path={`${SPEECH}/option/speed`}
            choices={[['slow', 'slow'], ['normal', 'normal'], ['fast', 'fast'], ['0.5', '0.5×'], ['1.25', '1.25×'], ['2.0', '2×']]}
          />
        </label>
      </div>
      <h3>Installed voices</h3>
      <Err msg={voices.error} />
      <ul class="list">
        {list.map((v) => (
          <li key={v.id}>
            <span>
              {v.name} <span class="muted small">{v.locale}</span>
            </span>
            <span class="actions">
              <ActionButton label="Sample" busyLabel="Playing…" onRun={() => api('POST', `${SPEECH}/voice/${seg(v.id)}/sample`)} />
              <ActionButton label="Remove" kind="danger" onRun={() => api('DELETE', `${SPEECH}/voice/${seg(v.id)}`)} />
            </span>
          </li>
        ))}
      </ul>
      <div class="inline wrap">
        {catalogue ? (
          <>
            <select value={install} onChange={(e) => setInstall((e.target as HTMLSelectElement).value)}>
              <option value="">choose a voice to install</option>
              {Object.values(catalogue)
                .filter((v) => !voices.data?.[v.id])
                .map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name} ({v.locale})
                  </option>
                ))}
            </select>
            <ActionButton label="Install" busyLabel="Installing…" kind="primary" disabled={!install} onRun={() => api('POST', `${SPEECH}/voice`, { id: install })} />
          </>
        ) : (
          <button type="button" disabled={cat.busy} onClick={() => void cat.run(() => api<Record<string, Voice>>('GET', `${SPEECH}/catalog`).then(setCatalogue))}>
            {cat.busy ? 'Loading…' : 'Install a voice…'}
          </button>
        )}
        <Err msg={cat.error} />
      </div>
    </Card>
  );
}

export function SystemPage(): JSX.Element {
  return (
    <div class="grid">
      <Speech />
      <Backups />
      <HubSettings />
    </div>
  );
}
