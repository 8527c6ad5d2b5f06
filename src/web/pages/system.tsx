/**
 * System, in sections a person can scan (home and language, sign-in and access, speech,
 * backups), with buttons at the top that jump to each. Speech is here (voices, install from the
 * engine's catalogue, speed, voice, a box to say a sentence); backups are in backups.tsx, the
 * hub's other settings (location, language, units, PIN, phone sign-in, tokens) in settings.tsx.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call } from '../client.js';
import type { Voice } from '../types.js';
import { ActionButton, Card, Err, ErrWithRaw, Ok, useAction, useLiveCollection, useLoad } from '../ui.js';
import { Backups } from './backups.js';
import { AccessSettings, HomeSettings } from './settings.js';

/** An option the page shows as a choice: how to read, set and unset it. */
interface OptionCalls {
  get(): Promise<{ value: unknown }>;
  set(value: string): Promise<unknown>;
  unset(): Promise<unknown>;
}

const VOICE: OptionCalls = {
  get: () => call('speech-output', 'getOptionVoice'),
  set: (value) => call('speech-output', 'setOptionVoice', { body: { value } }),
  unset: () => call('speech-output', 'unsetOptionVoice'),
};
const SPEED: OptionCalls = {
  get: () => call('speech-output', 'getOptionSpeed'),
  set: (value) => call('speech-output', 'setOptionSpeed', { body: { value } }),
  unset: () => call('speech-output', 'unsetOptionSpeed'),
};

function Say(): JSX.Element {
  const [text, setText] = useState('');
  const a = useAction();
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        const r = await call('speech-output', 'say', { body: { text } });
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

function OptionSelect({ option, choices, testId }: { option: OptionCalls; choices: Array<[string, string]>; testId?: string }): JSX.Element {
  const opt = useLoad(() => option.get(), [option]);
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
          void a.run(() => (v === '' ? option.unset() : option.set(v)).then(opt.reload));
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
  const voices = useLoad(() => call('speech-output', 'getVoices'));
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
          Voice <OptionSelect option={VOICE} choices={[['', 'hub language default'], ...list.map((v): [string, string] => [v.id, v.name])]} />
        </label>
        <label class="inline">
          Speed{' '}
          <OptionSelect
            option={SPEED}
            choices={[
              ['slow', 'slow'],
              ['normal', 'normal'],
              ['fast', 'fast'],
              ['0.5', '0.5×'],
              ['1.25', '1.25×'],
              ['2.0', '2×'],
            ]}
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
              <ActionButton label="Sample" busyLabel="Playing…" onRun={() => call('speech-output', 'playVoiceSample', { params: { id: v.id } })} />
              <ActionButton label="Remove" kind="danger" onRun={() => call('speech-output', 'uninstallVoice', { params: { id: v.id } })} />
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
            <ActionButton
              label="Install"
              busyLabel="Installing…"
              kind="primary"
              disabled={!install}
              onRun={() => call('speech-output', 'installVoice', { body: { id: install } })}
            />
          </>
        ) : (
          <button type="button" disabled={cat.busy} onClick={() => void cat.run(() => call('speech-output', 'getVoiceCatalog').then(setCatalogue))}>
            {cat.busy ? 'Loading…' : 'Install a voice…'}
          </button>
        )}
        <Err msg={cat.error} />
      </div>
    </Card>
  );
}

/** The page's sections, in the order a household needs them; each a heading the eye can find. */
const SECTIONS: ReadonlyArray<{ id: string; title: string; intro: string; view: () => JSX.Element }> = [
  { id: 'home', title: 'Home and language', intro: 'Where the home is, and the language and units the hub speaks.', view: HomeSettings },
  { id: 'access', title: 'Sign-in and access', intro: 'Sign in a phone, and see who else may use the hub.', view: AccessSettings },
  { id: 'speech', title: 'Speech', intro: 'The voice the hub speaks with.', view: Speech },
  { id: 'backups', title: 'Backups', intro: 'Copies of the home, on a schedule or now, to restore when something goes wrong.', view: Backups },
];

export function SystemPage(): JSX.Element {
  return (
    <div class="system">
      {/* Jumps within the page: buttons, since the address's hash is the page's route. */}
      <fieldset class="sections">
        <legend class="sr-only">Jump to a section</legend>
        {SECTIONS.map((s) => (
          <button key={s.id} type="button" onClick={() => document.getElementById(`system-${s.id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}>
            {s.title}
          </button>
        ))}
      </fieldset>
      {SECTIONS.map(({ id, title, intro, view: View }) => (
        <section key={id} id={`system-${id}`} class="system-section" aria-labelledby={`system-${id}-title`}>
          <header>
            <h2 id={`system-${id}-title`}>{title}</h2>
            <p class="muted">{intro}</p>
          </header>
          <div class="grid">
            <View />
          </div>
        </section>
      ))}
    </div>
  );
}
