/**
 * A device's settings as its driver declares them (`driver.settings` / driver.settings.compose.json,
 * flattened out of their groups by the hub): a field per setting by its type (check box, number
 * with its range, list for a dropdown or radio, text area, password, text). Save sends only what
 * changed; the hub checks each value against its declaration and the app's onSettings may refuse
 * them, and either's sentence is shown as is.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView, DeviceSettingView as SettingObj } from '../../managers/devices/views.js';
import { call } from '../client.js';
import { Err, label, useAction, useLoad } from '../ui.js';

function Field({ id, s, value, set }: { id: string; s: SettingObj; value: unknown; set: (v: unknown) => void }): JSX.Element {
  const testId = `device-setting-${s.id}`;
  switch (s.type) {
    case 'checkbox':
      return <input id={id} type="checkbox" checked={value === true} data-testid={testId} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
    case 'number':
      return (
        <input
          id={id}
          type="number"
          value={typeof value === 'number' ? String(value) : ''}
          min={s.min}
          max={s.max}
          step="any"
          data-testid={testId}
          onInput={(e) => {
            const t = (e.target as HTMLInputElement).value;
            set(t === '' ? null : Number(t));
          }}
        />
      );
    case 'dropdown':
    case 'radio':
      return (
        <select id={id} value={String(value ?? '')} data-testid={testId} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
          {(s.values ?? []).map((v) => (
            <option key={v.id} value={v.id}>
              {label(v.label) || v.id}
            </option>
          ))}
        </select>
      );
    case 'textarea':
      return <textarea id={id} value={String(value ?? '')} data-testid={testId} onInput={(e) => set((e.target as HTMLTextAreaElement).value)} />;
    case 'password':
      return <input id={id} type="password" value={String(value ?? '')} data-testid={testId} onInput={(e) => set((e.target as HTMLInputElement).value)} />;
    default:
      return <input id={id} type="text" value={String(value ?? '')} data-testid={testId} onInput={(e) => set((e.target as HTMLInputElement).value)} />;
  }
}

export function DeviceSettings({ device, onClose }: { device: DeviceView; onClose: () => void }): JSX.Element {
  const loaded = useLoad(() => call('devices', 'getDeviceSettingsObj', { params: { id: device.id } }));
  const [changed, setChanged] = useState<Record<string, unknown>>({});
  const a = useAction();
  if (!loaded.data) return loaded.error ? <Err msg={loaded.error} /> : <p class="muted">Loading settings…</p>;
  if (loaded.data.length === 0) {
    return (
      <p class="muted">
        {device.name} has no settings.{' '}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </p>
    );
  }
  return (
    <form
      class="device-settings"
      data-testid="device-settings"
      onSubmit={a.submit(async () => {
        await call('devices', 'setDeviceSettings', { params: { id: device.id }, body: changed });
        setChanged({});
        loaded.reload();
        return 'Saved.';
      })}
    >
      {loaded.data.map((s) => (
        <div class="field" key={s.id}>
          <label for={`setting-${device.id}-${s.id}`}>{label(s.label) || s.id}</label>
          <Field
            id={`setting-${device.id}-${s.id}`}
            s={s}
            value={Object.hasOwn(changed, s.id) ? changed[s.id] : s.value}
            set={(v) => setChanged({ ...changed, [s.id]: v })}
          />
        </div>
      ))}
      <div class="inline">
        <button type="submit" class="primary" disabled={a.busy || Object.keys(changed).length === 0} data-testid="device-settings-save">
          {a.busy ? 'Saving…' : 'Save settings'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
        {a.done ? <span role="status">{a.done}</span> : null}
      </div>
      <Err msg={a.error} />
    </form>
  );
}
