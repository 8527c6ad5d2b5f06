/**
 * System, part two: location, language and units, the assistant PIN (set/unset; the hub never
 * shows it back), and API tokens (create with chosen scopes, shown once; revoke).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { isScope, SCOPE_INFO, type Scope } from '../../core/scopes.js';
import { call } from '../client.js';
import type { Token, Units } from '../types.js';
import { ActionButton, Card, CopyButton, Err, formatTime, LanguageSelect, ScopePicker, useAction, useLoad } from '../ui.js';
import { PhoneLogin } from './phone-login.js';

/** A token's scopes in words (their labels), the raw names in the tooltip. */
function scopeWords(t: Token): string {
  if (t.owner) return 'owner, every scope';
  return t.scopes.map((s) => (isScope(s) ? SCOPE_INFO[s].label : s)).join(', ');
}

function Location(): JSX.Element {
  const state = useLoad(() => call('geolocation', 'getState'));
  const [lat, setLat] = useState<string | null>(null);
  const [lon, setLon] = useState<string | null>(null);
  const a = useAction();
  const loc = state.data?.location;
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        const latitude = lat ?? (loc ? String(loc.latitude) : '');
        const longitude = lon ?? (loc ? String(loc.longitude) : '');
        if (latitude.trim() === '' || longitude.trim() === '') throw new Error('enter both a latitude and a longitude');
        await call('geolocation', 'setOptionLocation', { body: { value: { latitude: Number(latitude), longitude: Number(longitude) } } });
        state.reload();
      })}
    >
      <label class="inline">
        Latitude <input type="number" step="any" size={8} value={lat ?? loc?.latitude ?? ''} onInput={(e) => setLat((e.target as HTMLInputElement).value)} />
      </label>
      <label class="inline">
        Longitude <input type="number" step="any" size={8} value={lon ?? loc?.longitude ?? ''} onInput={(e) => setLon((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" disabled={a.busy}>
        {a.busy ? 'Saving…' : 'Save'}
      </button>
      {loc ? (
        <ActionButton
          label="Clear"
          onRun={() =>
            call('geolocation', 'unsetOptionLocation').then(() => {
              setLat(null);
              setLon(null);
              state.reload();
            })
          }
        />
      ) : null}
      <Err msg={a.error ?? state.error} />
    </form>
  );
}

function Language(): JSX.Element {
  const state = useLoad(() => call('i18n', 'getState'));
  const a = useAction();
  const put = (set: () => Promise<unknown>): void => void a.run(() => set().then(state.reload));
  const s = state.data;
  return (
    <div class="inline wrap">
      <LanguageSelect
        class="inline"
        languages={s?.languages}
        value={s?.language}
        disabled={!s || a.busy}
        onChange={(value) => put(() => call('i18n', 'setOptionLanguage', { body: { value } }))}
      />
      <label class="inline">
        Units
        <select
          value={s?.units}
          disabled={!s || a.busy}
          onChange={(e) => put(() => call('i18n', 'setOptionUnits', { body: { value: (e.target as HTMLSelectElement).value as Units } }))}
        >
          <option value="metric">metric</option>
          <option value="imperial">imperial</option>
        </select>
      </label>
      <Err msg={a.error ?? state.error} />
    </div>
  );
}

function Pin(): JSX.Element {
  const state = useLoad(() => call('google-assistant', 'getState'));
  const [pin, setPin] = useState('');
  const a = useAction();
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        await call('google-assistant', 'setOptionPinCode', { body: { value: pin } });
        setPin('');
        state.reload();
      })}
    >
      <span data-testid="pin-state">{state.data ? (state.data.pinCodeSet ? 'A PIN is set.' : 'No PIN set.') : '…'}</span>
      <input
        type="password"
        inputMode="numeric"
        autocomplete="new-password"
        placeholder="4–8 digits"
        size={8}
        value={pin}
        onInput={(e) => setPin((e.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={a.busy || !pin}>
        Set PIN
      </button>
      {state.data?.pinCodeSet ? (
        <ActionButton label="Remove PIN" kind="danger" onRun={() => call('google-assistant', 'unsetOptionPinCode').then(state.reload)} />
      ) : null}
      <Err msg={a.error ?? state.error} />
    </form>
  );
}

function Tokens(): JSX.Element {
  const tokens = useLoad(() => call('tokens', 'getTokens'));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const a = useAction();
  return (
    <>
      <Err msg={tokens.error} />
      <ul class="list">
        {Object.values(tokens.data ?? {}).map((t) => (
          <li key={t.id} data-token={t.name}>
            <span>
              <b>{t.name}</b> {t.session ? <span class="badge idle">session</span> : null}{' '}
              <span class="muted small" title={t.scopes.join(', ')}>
                {scopeWords(t)} · {formatTime(t.createdAt)}
              </span>
            </span>
            {t.owner ? null : (
              <ActionButton
                label="Revoke"
                kind="danger"
                confirm={`Revoke '${t.name}'? Clients using it stop working at once.`}
                onRun={() => call('tokens', 'deleteToken', { params: { id: t.id } }).then(tokens.reload)}
              />
            )}
          </li>
        ))}
      </ul>
      <form
        onSubmit={a.submit(async () => {
          setSecret(null);
          const made = await call('tokens', 'createToken', { body: { name, scopes } });
          setSecret(made.token);
          setName('');
          setScopes([]);
          tokens.reload();
        })}
      >
        <label>
          Name <input placeholder="e.g. kitchen-tablet" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <ScopePicker value={scopes} onChange={setScopes} />
        <button type="submit" class="primary" disabled={a.busy}>
          {a.busy ? 'Creating…' : 'Create token'}
        </button>
        <Err msg={a.error} />
      </form>
      {secret ? (
        <p class="ok">
          Copy it now, it is shown only once:{' '}
          <code class="break" data-testid="secret">
            {secret}
          </code>{' '}
          <CopyButton text={secret} what="the token" />
        </p>
      ) : null}
    </>
  );
}

/** The home's place and words: where it is (sun times, weather) and its language and units. */
export function HomeSettings(): JSX.Element {
  return (
    <>
      <Card title="Location">
        <Location />
      </Card>
      <Card title="Language and units">
        <Language />
      </Card>
    </>
  );
}

/** Who and what may use the hub: a phone signed in by its camera, tokens and sessions, the assistant's PIN. */
export function AccessSettings(): JSX.Element {
  return (
    <>
      <Card title="Sign in a phone">
        <PhoneLogin />
      </Card>
      <Card title="API tokens and sessions">
        <Tokens />
      </Card>
      <Card title="Google Assistant PIN">
        <Pin />
      </Card>
    </>
  );
}
